// Demo data for a first run: a verified demo manager with a company, questions of both kinds, a job with a welcome
// message and a 7-day response time, and an invited candidate with a deadline (issue 17). Run by `npm start` once (it leaves .data/seeded), or alone:
//   node scripts/seed.mjs http://127.0.0.1:8090 SUPERUSER_EMAIL SUPERUSER_PASSWORD
import PocketBase from "pocketbase";

export const DEMO_MANAGER = { email: "demo@screenroom.test", password: "demo-password-123", firstName: "Demo", lastName: "Manager" };
const LOGO_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAGAAAABgCAIAAABt+uBvAAAACXBIWXMAAAABAAAAAQBPJcTWAAAApElEQVR4nO3QQQ0AIBDAsDOGGHwjBgd82aPJBCydtY8ezfeDeIAAAQIEKBwgQIAAAQoHCBAgQIDCAQIECBCgcIAAAQIEKBwgQIAAAQoHCBAgQIDCAQIECBCgcIAAAQIEKBwgQIAAAQoHCBAgQIDCAQIECBCgcIAAAQIEKBwgQIAAAQoHCBAgQIDCAQIECBCgcIAAAQIEKBwgQIAAAQoHCBAgQD+7XwYrHG0psiEAAAAASUVORK5CYII=";

export function logoFile() {
  return new File([Buffer.from(LOGO_PNG_BASE64, "base64")], "logo.png", { type: "image/png" });
}

function client(url) {
  const pb = new PocketBase(url);
  pb.autoCancellation(false);
  return pb;
}

export async function seedDemo({ url, superuser }) {
  const su = client(url);
  await su.collection("_superusers").authWithPassword(superuser.email, superuser.password);

  const existing = await su.collection("users").getFirstListItem(su.filter("email = {:e}", { e: DEMO_MANAGER.email })).catch(() => null);
  if (!existing) {
    await su.collection("users").create({
      email: DEMO_MANAGER.email,
      password: DEMO_MANAGER.password,
      passwordConfirm: DEMO_MANAGER.password,
      firstName: DEMO_MANAGER.firstName,
      lastName: DEMO_MANAGER.lastName,
      emailVisibility: true,
      verified: true,
    });
  }

  // everything else as the demo manager, through the same rules and hooks the app goes through
  const pb = client(url);
  await pb.collection("users").authWithPassword(DEMO_MANAGER.email, DEMO_MANAGER.password);
  const company = await pb.collection("companies").create({ name: "Northwind Talent", website: "https://northwind.example.com", logo: logoFile() });

  const questions = [];
  for (const q of [
    { title: "Introduce yourself", description: "Tell us who you are and what you are looking for in your next role.", timeout: 90, canPreview: true, kind: "video", takes: 3, preparation: 30 },
    { title: "A problem you solved", description: "Describe a hard problem you solved recently, and how you went about it.", timeout: 120, canPreview: false, kind: "video", takes: 2, preparation: 60 },
    { title: "Why Northwind?", description: "In a few sentences: why do you want to work with us?", timeout: 180, canPreview: true, kind: "text" },
  ]) {
    const batch = pb.createBatch();
    const id = randomId();
    batch.collection("questions").create({ id, company: company.id, title: q.title, description: q.description, timeout: q.timeout, canPreview: q.canPreview });
    if (q.kind === "video") batch.collection("video_questions").create({ question: id, takes: q.takes, preparation: q.preparation });
    else batch.collection("text_questions").create({ question: id });
    await batch.send();
    questions.push(id);
  }

  const job = await pb.collection("jobs").create({
    company: company.id,
    title: "Customer Success Engineer",
    description: "Help our customers get the most out of Northwind: onboarding, troubleshooting and feedback to the product team.",
    location: "Remote (EU)",
    welcomeMessage: "Thank you for your interest in joining us!\nThere are no trick questions: answer as you would in a conversation, and take a moment to think before each one.",
    // an invite's deadline is, by default, a week after it is sent (the server sets it from this)
    responseDays: 7,
    questions,
  });
  const candidate = await pb.collection("candidates").create({ job: job.id, email: "candidate@screenroom.test" });

  // the interview link's key is hidden from everyone but superusers
  const { secret } = await su.collection("candidates").getOne(candidate.id);
  return { manager: DEMO_MANAGER, companyId: company.id, jobId: job.id, candidateId: candidate.id, candidateKey: secret };
}

export function randomId() {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  let id = "";
  for (let i = 0; i < 15; i++) id += alphabet[Math.floor(Math.random() * alphabet.length)];
  return id;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [url = "http://127.0.0.1:8090", email, password] = process.argv.slice(2);
  if (!email || !password) {
    console.error("usage: node scripts/seed.mjs URL SUPERUSER_EMAIL SUPERUSER_PASSWORD");
    process.exit(2);
  }
  console.log(await seedDemo({ url, superuser: { email, password } }));
}

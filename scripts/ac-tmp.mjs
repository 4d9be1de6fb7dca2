import autocannon from "autocannon";
const [,, path] = process.argv;
const token = (await import("node:fs")).readFileSync("/tmp/tok","utf8").trim();
const times=[];
const run = autocannon({ url: "http://127.0.0.1:8399"+path, headers:{authorization: token}, connections: 10, duration: 4 });
run.on("response", (_c, s, _b, t) => times.push(t));
const sum = await run; times.sort((a,b)=>a-b);
console.log(`p50 ${times[Math.floor(times.length/2)]} p95 ${times[Math.floor(times.length*0.95)]} rps ${sum.requests.average} non2xx ${sum.non2xx}  ${path.slice(0,90)}`);

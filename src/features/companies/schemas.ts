import { z } from 'zod';

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

function isWebsite(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** What a zone the server does not know gets (server/internal/companies/settings.go says the same). */
export const TIME_ZONE_MESSAGE = 'Choose a time zone from the list.';

/**
 * The company form (spec §5): a new logo is a File, the stored one its file name. Its settings screen adds the
 * e-mail settings: the zone e-mails state times in (an IANA name, '' for UTC; the server checks it against its own
 * zone database) and whether they leave out the product's footer line.
 */
export const companySchema = z.object({
  name: z.string().trim().min(1, 'Company name is required').max(100, 'Company name must be at most 100 characters'),
  website: z
    .string()
    .trim()
    .min(1, 'Company website is required')
    .refine(isWebsite, 'Invalid website URL'),
  /** Issue 17: the company's privacy page, linked from the interview's start screen ('' for none). */
  privacyUrl: z
    .string()
    .trim()
    .refine((value) => value === '' || isWebsite(value), 'Invalid privacy policy URL')
    .default(''),
  logo: z
    .custom<File | string>(
      (value) => value instanceof File || (typeof value === 'string' && value.length > 0),
      'Company logo is required',
    )
    .refine(
      (value) => !(value instanceof File) || (IMAGE_TYPES as readonly string[]).includes(value.type),
      'The logo must be a PNG, JPEG, WebP or GIF image',
    )
    .refine((value) => !(value instanceof File) || value.size <= IMAGE_MAX_BYTES, 'The logo must be at most 5 MB'),
  timeZone: z
    .string()
    .max(64, TIME_ZONE_MESSAGE)
    .refine((value) => value.trim() === value, TIME_ZONE_MESSAGE)
    .default(''),
  mailFooterOff: z.boolean().default(false),
});

export type CompanyFormValues = z.output<typeof companySchema>;
export type CompanyFormInput = z.input<typeof companySchema>;

export const inviteManagerSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('Please enter a valid email address.')),
});

export type InviteManagerValues = z.infer<typeof inviteManagerSchema>;

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

/** The company form (spec §5): a new logo is a File, the stored one its file name. */
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
});

export type CompanyFormValues = z.infer<typeof companySchema>;
export type CompanyFormInput = z.input<typeof companySchema>;

export const inviteManagerSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('Please enter a valid email address.')),
});

export type InviteManagerValues = z.infer<typeof inviteManagerSchema>;

/**
 * Forms (`form_…`): what a bulk campaign's assistant fills on every call. The definition (fields with a
 * key, a type and optional description, `required`, `options`) and the one check of filled values, shared
 * by the API (`POST /v1/forms` stores definitions), the call workflow (the `fill_form` tool checks the
 * model's values against the form and answers a bad value as a tool error) and the campaign's results.
 * Bundle-safe: pure functions, imports nothing.
 */

/** Field types a form may have (`enum` needs `options`; `date` is an ISO calendar date `YYYY-MM-DD`). */
export const FORM_FIELD_TYPES = ['string', 'number', 'boolean', 'enum', 'date'] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** One field of a form, as stored and as the API shows it. */
export interface FormField {
  /** The field's key in the filled values: `^[a-z][a-z0-9_]{0,39}$`. */
  key: string;
  type: FormFieldType;
  /** What the field means, for the assistant (and people reading results). */
  description: string | null;
  required: boolean;
  /** The allowed values of an `enum` field; null for other types. */
  options: string[] | null;
}

/** A form as a call carries it (a snapshot: forms are immutable once created). */
export interface FormDefinition {
  id: string;
  name: string;
  fields: FormField[];
}

/** Filled values by field key. */
export type FormValues = Record<string, string | number | boolean>;

/** Longest accepted `string` value (characters). */
export const MAX_FORM_STRING = 1000;

/** The field key rule: lower-case snake case, 40 characters at most. */
export const FORM_KEY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

/** True for an ISO calendar date `YYYY-MM-DD` that exists (2026-02-30 does not). */
export function isIsoDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * Checks values the model gave `fill_form` against the form. Every key must be a field of the form and
 * every value of the field's type: a JSON number for `number`, a JSON boolean for `boolean`, one of
 * `options` for `enum` (matched without regard to case, stored as the option is spelled), an ISO date for
 * `date`, a non-empty string of at most `MAX_FORM_STRING` characters for `string`.
 * @returns the normalised values, or every problem found (nothing is kept when one value is bad)
 */
export function checkFormValues(
  form: FormDefinition,
  values: unknown,
): { ok: true; values: FormValues } | { ok: false; errors: string[] } {
  if (!values || typeof values !== 'object' || Array.isArray(values))
    return { ok: false, errors: ['"fields" must be an object of values by field key'] };
  const byKey = new Map(form.fields.map((f) => [f.key, f]));
  const errors: string[] = [];
  const out: FormValues = {};
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    const field = byKey.get(key);
    if (!field) {
      errors.push(`"${key}" is not a field of this form (fields: ${form.fields.map((f) => f.key).join(', ')})`);
      continue;
    }
    switch (field.type) {
      case 'number':
        if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
        else errors.push(`"${key}" must be a number`);
        break;
      case 'boolean':
        if (typeof value === 'boolean') out[key] = value;
        else errors.push(`"${key}" must be true or false`);
        break;
      case 'enum': {
        const option =
          typeof value === 'string'
            ? field.options?.find((o) => o.toLowerCase() === value.trim().toLowerCase())
            : undefined;
        if (option !== undefined) out[key] = option;
        else errors.push(`"${key}" must be one of: ${(field.options ?? []).join(', ')}`);
        break;
      }
      case 'date':
        if (typeof value === 'string' && isIsoDate(value.trim())) out[key] = value.trim();
        else errors.push(`"${key}" must be a date written YYYY-MM-DD`);
        break;
      default:
        if (typeof value === 'string' && value.trim().length > 0 && value.length <= MAX_FORM_STRING)
          out[key] = value.trim();
        else errors.push(`"${key}" must be a non-empty text of at most ${MAX_FORM_STRING} characters`);
    }
  }
  if (Object.keys(values as object).length === 0) errors.push('"fields" is empty: give at least one value');
  return errors.length ? { ok: false, errors } : { ok: true, values: out };
}

/** Keys of required fields that `values` does not fill yet. */
export function missingRequired(form: FormDefinition, values: FormValues): string[] {
  return form.fields.filter((f) => f.required && !(f.key in values)).map((f) => f.key);
}

/**
 * What the assistant is told about the form on a campaign call: its fields (type, required, options,
 * description) and how to use `fill_form`.
 */
export function formPrompt(form: FormDefinition): string {
  const lines = form.fields.map((f) => {
    const kind =
      f.type === 'enum'
        ? `one of ${(f.options ?? []).map((o) => JSON.stringify(o)).join(', ')}`
        : f.type === 'date'
          ? 'date YYYY-MM-DD'
          : f.type;
    return `- ${f.key} (${kind}${f.required ? ', required' : ''})${f.description ? `: ${f.description}` : ''}`;
  });
  return [
    `On this call you fill the form "${form.name}". Its fields:`,
    ...lines,
    'As soon as the person gives you values, call the tool fill_form with {"fields": {<key>: <value>, …}}; ' +
      'you may call it several times (later values replace earlier ones). If it answers with an error, ask again or correct the value.',
  ].join('\n');
}

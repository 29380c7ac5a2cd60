/**
 * Forms (`form_…`, object `form`): what a bulk campaign's assistant fills on each call
 * (src/shared/forms.ts). Written once by the API (`POST /v1/forms`, insert-if-absent under the idempotency
 * record's id) and never changed, so a campaign and its calls may read a form at any time and see the
 * same fields.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { FORM_FIELD_TYPES, type FormDefinition, type FormField, type FormFieldType } from '../shared/forms';
import { schemaOptions as base } from './store';
import { apiObject, unix } from './wire';

const fieldSchema = new Schema(
  {
    key: { type: String, required: true },
    type: { type: String, required: true },
    description: { type: String, default: null },
    required: { type: Boolean, required: true },
    options: { type: [String], default: null },
  },
  { _id: false, versionKey: false },
);

const formSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    name: { type: String, required: true },
    fields: { type: [fieldSchema], required: true },
    created: { type: Number, required: true },
  },
  base,
);
formSchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const Form = mongoose.model('Form', formSchema, 'forms');

export type FormDoc = InferSchemaType<typeof formSchema>;

/** A stored form as read with `lean()` or as written (fields as plain objects). */
export interface StoredForm {
  _id: string;
  livemode: boolean;
  name: string;
  created: number;
  fields: { key: string; type: string; description?: string | null; required: boolean; options?: string[] | null }[];
}

/** The fields of a stored form in the contract's shape. */
export function formFields(doc: Pick<StoredForm, 'fields'>): FormField[] {
  return doc.fields.map((f) => ({
    key: f.key,
    type: f.type as FormFieldType,
    description: f.description ?? null,
    required: f.required,
    options: f.options && f.options.length ? [...f.options] : null,
  }));
}

/** The form as a call carries it (src/shared/calls.ts `CallCampaign.form`). */
export function formDefinition(doc: StoredForm): FormDefinition {
  return { id: doc._id, name: doc.name, fields: formFields(doc) };
}

/** The `form` object as the API answers it (the OpenAPI component `Form`). */
export const FormObject = apiObject(
  'Form',
  'The fields a bulk campaign fills on every call.',
  z.object({
    id: z.string(),
    object: z.literal('form'),
    livemode: z.boolean(),
    name: z.string(),
    fields: z.array(
      z.object({
        key: z.string(),
        type: z.enum(FORM_FIELD_TYPES),
        description: z.string().nullable(),
        required: z.boolean(),
        options: z.array(z.string()).nullable(),
      }),
    ),
    created: unix,
  }),
);

/** The `form` object. */
export function renderForm(doc: StoredForm): z.output<typeof FormObject> {
  return {
    id: doc._id,
    object: 'form' as const,
    livemode: doc.livemode,
    name: doc.name,
    fields: formFields(doc),
    created: doc.created,
  };
}

import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { MalformedMultipartError, isMalformedMultipart } from '../../../shared/input/malformed-multipart.ts';

/**
 * The most bytes of URLs one bulk submit carries, as a file or as text: 1000 lines of the
 * longest URL (2048) with an alias and a title fit.
 */
export const BULK_BYTES = 3 * 1024 * 1024;

/** What went wrong reading one field of the upload. */
export type UploadProblem = 'tooLarge' | 'notUtf8';

export interface Upload {
  /** The CSV file's text; null when no file was chosen (browsers send an empty part). */
  file: string | null;
  /** Problems by field name (`file`, `urls`). */
  problems: Record<string, UploadProblem>;
}

/**
 * The multipart parser, in the bulk route's own scope only. Limits: one file, as many fields as
 * the form has (the options, up to 50 pixels) and a little more, each at most BULK_BYTES.
 */
export async function registerUploads(scope: FastifyInstance): Promise<void> {
  await scope.register(multipart, {
    limits: { fileSize: BULK_BYTES, fieldSize: BULK_BYTES, files: 1, fields: 80, parts: 81, fieldNameSize: 100 },
  });
}

/**
 * Before validation: reads a multipart body into `request.body` as the form parser would
 * (`pixels[]` as a list named `pixels`, text fields as strings) and answers the file's text apart
 * (no file for a form-encoded request). The parser's limits become problems of the field, shown
 * on the form, instead of errors.
 */
export async function readMultipartForm(request: FastifyRequest): Promise<Upload> {
  const upload: Upload = { file: null, problems: {} };
  if (!request.isMultipart()) return upload;
  const body: Record<string, unknown> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname !== 'file' || (bytes.length === 0 && part.filename === '')) continue;
        if (!isUtf8(bytes)) upload.problems.file = 'notUtf8';
        else upload.file = bytes.toString('utf8');
        continue;
      }
      if (part.valueTruncated) upload.problems[part.fieldname] = 'tooLarge';
      addField(body, part.fieldname, typeof part.value === 'string' ? part.value : '');
    }
  } catch (error) {
    // A body that is not the multipart its header says: the app's 400 page, not a server fault.
    if (isMalformedMultipart(error)) throw new MalformedMultipartError(error);
    if (!isLimitError(error)) throw error;
    upload.problems.file = 'tooLarge';
  }
  request.body = body;
  return upload;
}

function addField(body: Record<string, unknown>, fieldname: string, value: string): void {
  const list = fieldname.endsWith('[]');
  const name = list ? fieldname.slice(0, -2) : fieldname;
  if (name === '__proto__' || name === 'constructor' || name === 'prototype') return;
  const existing = body[name];
  if (Array.isArray(existing)) existing.push(value);
  else if (existing !== undefined) body[name] = [existing, value];
  else body[name] = list ? [value] : value;
}

function isLimitError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^FST_(REQ_FILE_TOO_LARGE|PARTS_LIMIT|FILES_LIMIT|FIELDS_LIMIT)$/.test(code);
}

// Exports (spec 2.10, 4.10, 4.12; get and download from the platform's published reference).
import * as z from 'zod/mini';
import { EXPORT_TYPES } from '../enums.js';
import { dateTime, isoDateTime, list, int, oneOf, text, tolerant, uri } from './common.js';

export const dataExport = tolerant({
  id: int,
  created_at: dateTime,
  date_from: dateTime,
  date_to: dateTime,
  status: text,
  type: oneOf(EXPORT_TYPES),
  url: uri,
});

export const create = {
  body: z.strictObject({ date_from: isoDateTime, date_to: isoDateTime, type: z.enum(EXPORT_TYPES) }),
  response: dataExport,
};

export const listTypes = { response: tolerant({ types: list(tolerant({ code: oneOf(EXPORT_TYPES), name: text })) }) };
export const get = { response: dataExport };

/** A temporary signed link to the file, fetched with no token. */
export const download = { response: tolerant({ url: uri }) };

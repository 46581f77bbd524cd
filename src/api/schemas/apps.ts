// App settings (spec 2.14, 4.14): free-form in both directions.
import { jsonObject } from './common.js';

export const updateSettings = { body: jsonObject, response: jsonObject };

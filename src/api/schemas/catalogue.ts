// Categories (spec 2.12, 4.13).
import { bool, int, text, tolerant, uri } from './common.js';

export const category = tolerant({
  id: int,
  description: text,
  external_tax_code: text,
  image: uri,
  is_public: bool,
  meta_description: text,
  meta_title: text,
  name: text,
  slug: text,
  template: text,
});

export const get = { response: category };

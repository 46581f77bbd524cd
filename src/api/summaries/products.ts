// What each products operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/products/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  productsList: 'List products, filtered by title, category, SKU and visibility',
  productsCreate: 'Create a product with its variants',
  productsRetrieve: 'Show a product',
  productsUpdate: "Replace a product's fields",
  productsPartialUpdate: 'Change some fields of a product',
  productsDestroy: 'Delete a product',
  productsChildrenList: "List a product's child products",
  productsChildrenCreate: 'Add a child product to a product',
  productsImageList: "List a product's images",
  productsImageCreate: 'Add an image to a product, from a URL or an upload',
  productsImageDetail: "Show one of a product's images",
  productsImageUpdate: "Change an image's caption, position or variants",
  productsImageDelete: "Delete one of a product's images",
  productsPricesList: "List a product's prices, one per currency",
  productsPricesCreate: 'Price a product in another currency',
  productsPricesRetrieve: "Show a product's price in one currency",
  productsPricesPartialUpdate: "Change a product's price in one currency",
  productsPricesDestroy: "Delete a product's price in one currency",
  productsVariantList: "List a product's variants",
  productsVariantCreate: 'Add a variant to a product',
  productsChildrenRetrieve: 'Show a child product',
  productsChildrenUpdate: "Replace a child product's fields",
  productsChildrenPartialUpdate: 'Change some fields of a child product',
  productsChildrenDestroy: 'Delete a child product',
  productsVariantsRetrieve: 'Show a product variant',
  productsVariantsUpdate: "Replace a product variant's fields",
  productsVariantsPartialUpdate: 'Change some fields of a product variant',
  productsVariantsDestroy: 'Delete a product variant',
};

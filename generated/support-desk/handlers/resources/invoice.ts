import { notImplemented } from 'mcp-gen/runtime';
import type { InvoiceResource } from '../../types.gen.js';

/**
 * Resource `invoice`: Invoice.
 *
 * URI: support://customers/{customerId}/invoices/{invoiceId} (application/json). Scopes: tickets:read.
 *
 * Throw `resourceNotFound()` when the addressed instance does not exist.
 */
export const invoice: InvoiceResource = {
  async read(params, ctx) {
    throw notImplemented('resource', 'invoice');
  },
};

import { resourceNotFound } from 'mcp-gen/runtime';
import type { InvoiceResource } from '../../types.gen.js';
import { findInvoice } from '../data.js';

/**
 * Resource `invoice`: one invoice of one customer.
 *
 * URI: support://customers/{customerId}/invoices/{invoiceId} (application/json). Scopes: tickets:read.
 */
export const invoice: InvoiceResource = {
  async read(params) {
    const found = findInvoice(params.invoiceId);
    // Another customer's invoice is "not found" too: the URI must not reveal it exists.
    if (!found || found.customerId !== params.customerId) throw resourceNotFound();
    return found;
  },
};

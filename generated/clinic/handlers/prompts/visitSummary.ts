import { notImplemented } from 'mcp-gen/runtime';
import type { VisitSummaryPrompt } from '../../types.gen.js';

/**
 * Prompt `visit_summary`: Visit summary.
 *
 * Draft a plain-language summary of one appointment for the patient.
 */
export const visitSummary: VisitSummaryPrompt = {
  async get(args, ctx) {
    throw notImplemented('prompt', 'visit_summary');
  },
};

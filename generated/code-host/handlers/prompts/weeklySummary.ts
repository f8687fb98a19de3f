import { notImplemented } from 'mcp-gen/runtime';
import type { WeeklySummaryPrompt } from '../../types.gen.js';

/**
 * Prompt `weekly_summary`: Summarize the week.
 *
 * Summarize a repository's merged pull requests and closed issues of the last week, grouped by theme.
 */
export const weeklySummary: WeeklySummaryPrompt = {
  async get(args, ctx) {
    throw notImplemented('prompt', 'weekly_summary');
  },
  complete: {
    owner: async (value, context, ctx) => [],
    name: async (value, context, ctx) => [],
  },
};

import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { WeeklyReportPrompt } from '../../types.gen.js';

/**
 * Prompt `weekly_report`: Weekly report.
 *
 * Summarise the week's orders; a handler builds the messages.
 */
export const weeklyReport: WeeklyReportPrompt = {
  async get(args, ctx): Promise<Returns<WeeklyReportPrompt['get']>> {
    throw notImplemented('prompt', 'weekly_report');
  },
};

/**
 * The lint wordings in the languages of the seeds: their non-ASCII phrases are written as `\u` escapes (the
 * bundle stays ASCII, see scripts/build-bundle.mjs), and each still matches the phrase it stands for.
 */
import { describe, expect, it } from 'vitest';
import { CONFIRM_WORDING, IRREVERSIBLE_WORDING, READ_ONLY_WORDING, WHEN_NOT_WORDING } from '../../generator/lint/prose.js';

const PHRASES: readonly [string, RegExp, readonly string[]][] = [
  ['IRREVERSIBLE_WORDING', IRREVERSIBLE_WORDING, ['Удаление необратимо.', 'Это нельзя отменить.', '此操作不可逆。', '删除后无法撤销。']],
  ['WHEN_NOT_WORDING', WHEN_NOT_WORDING, ['Не для отчётов.', 'Не используйте для экспорта.', 'Не подходит для массовых правок.', '不适用于批量导出。', '不要用于报表。']],
  ['READ_ONLY_WORDING', READ_ONLY_WORDING, ['Только чтение.', '只读操作。']],
  ['CONFIRM_WORDING', CONFIRM_WORDING, ['Требует подтверждения пользователя.', '需要用户确认。', '须经审批。']],
];

describe('lint wordings in other languages', () => {
  it.each(PHRASES)('%s matches each of its phrases, and is written in ASCII', (_, wording, phrases) => {
    for (const p of phrases) expect(wording.test(p), p).toBe(true);
    expect(/[^\x00-\x7f]/.test(wording.source)).toBe(false);
    // Nor does it match the same text without the phrase.
    expect(wording.test('Returns the item.')).toBe(false);
  });
});

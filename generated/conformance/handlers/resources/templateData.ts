import type { TemplateDataResource } from '../../types.gen.js';

/** Resource template `test://template/{id}/data` (scenario resources-templates-read). */
export const templateData: TemplateDataResource = {
  read: ({ id }) => ({ id, templateTest: true, data: `Data for ID: ${id}` }),
};

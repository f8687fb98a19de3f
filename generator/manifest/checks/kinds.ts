import type { Check, CheckContext, Entry } from './context.js';

type Controller = 'model' | 'application' | 'user';

const OWN: Record<string, Controller> = { tools: 'model', resources: 'application', prompts: 'user' };
/** Why each controller implies a primitive: the seeds' "who controls the next step". */
const WANTS: Record<Controller, { section: string; why: string }> = {
  model: { section: 'tools', why: 'an operation the model decides to call is a tool' },
  application: { section: 'resources', why: 'context the application decides to read by URI is a resource' },
  user: { section: 'prompts', why: 'a user-picked template is a prompt' },
};

/** `controller:` must match the kind; resources and prompts have no side effects; idempotency keys on reads are pointless. */
function checkKind(ctx: CheckContext, e: Entry): void {
  const { section, name } = e;
  const p = e.value as { controller?: Controller; sideEffect?: string };
  if (p.controller !== undefined && p.controller !== OWN[section]) {
    const want = WANTS[p.controller];
    ctx.r.error('MG300', [section, name, 'controller'],
      `\`controller: ${p.controller}\` does not fit ${section}: ${section} are ${OWN[section]}-controlled; ${want.why}`,
      `${want.why}; move \`${name}\` under ${want.section}:, or remove \`controller\``);
  }
  if (section !== 'tools' && p.sideEffect !== undefined && p.sideEffect !== 'none') {
    const kind = section === 'resources' ? 'resource' : 'prompt';
    ctx.r.error('MG302', [section, name, 'sideEffect'],
      `a ${kind} must not have side effects, but \`${name}\` declares \`sideEffect: ${p.sideEffect}\`; clients ${kind === 'resource' ? 'read resources' : 'expand prompts'} freely, without asking anyone`,
      `make the effectful part a tool under tools: (with \`sideEffect: ${p.sideEffect}\`), and remove \`sideEffect\` here`);
  }
  if (e.section === 'tools' && e.value.sideEffect === 'read' && e.value.idempotency === 'required') {
    ctx.r.warn('MG304', ['tools', name, 'idempotency'], `\`idempotency: required\` is meaningless on a read tool: reads are idempotent by nature`,
      'remove `idempotency`; callers would have to send a key for nothing');
  }
}

/** Controllers, side effects of resources and prompts, idempotency of reads: one entry at a time. */
export const checkKinds: Check = { entry: checkKind };

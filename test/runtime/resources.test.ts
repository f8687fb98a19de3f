import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERAS, POLICY, connect, createServer } from './fixture.js';

type Conn = Awaited<ReturnType<typeof connect>>;

/** Reads `uri` and returns the JSON-RPC error it fails with. */
async function readError(conn: Conn, uri: string): Promise<{ code: number; message: string }> {
  try {
    await conn.client.readResource({ uri });
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error(`read of ${uri} succeeded`);
}

describe.each(ERAS)('resources ($era era)', ({ mode }) => {
  let conn: Conn;
  beforeEach(async () => {
    conn = await connect(mode);
  });
  afterEach(() => conn.close());

  it('serves embedded source text', async () => {
    const r = await conn.client.readResource({ uri: 'support://policies/refunds/2026-09' });
    expect(r.contents).toEqual([{ uri: 'support://policies/refunds/2026-09', mimeType: 'text/markdown', text: POLICY }]);
  });

  it('serves binary content as a base64 blob', async () => {
    const r = await conn.client.readResource({ uri: 'support://logo.png' });
    expect(r.contents).toEqual([{ uri: 'support://logo.png', mimeType: 'image/png', blob: Buffer.from([137, 80, 78, 71]).toString('base64') }]);
  });

  it('serializes JSON values', async () => {
    const r = await conn.client.readResource({ uri: 'support://stats' });
    expect(r.contents[0]).toMatchObject({ mimeType: 'application/json', text: '{"open":3}' });
  });

  it('reads a template with validated params and schema-checked content', async () => {
    const r = await conn.client.readResource({ uri: 'support://tickets/T-1234' });
    expect(r.contents).toEqual([{ uri: 'support://tickets/T-1234', mimeType: 'application/json', text: '{"id":"T-1234","status":"pending"}' }]);
  });

  it('converts typed template variables', async () => {
    const r = await conn.client.readResource({ uri: 'docs://pages/41' });
    expect(r.contents[0]).toMatchObject({ text: 'page 42' });
    expect(await readError(conn, 'docs://pages/zero')).toMatchObject({ code: -32602, message: expect.stringContaining("'n'") });
  });

  it('refuses content that violates the resource schema, without leaking', async () => {
    const e = await readError(conn, 'support://tickets/T-7777');
    expect(e.code).toBe(-32603);
    expect(e.message).toContain('Resource ticket produced content that does not match its schema: /status must be one of');
  });

  it('rejects params that fail their schema, naming the variable', async () => {
    const e = await readError(conn, 'support://tickets/X-1');
    expect(e.code).toBe(-32602);
    expect(e.message).toContain("Invalid template variable 'ticketId': /ticketId must match pattern");
  });

  it.each([
    ['..%2F..%2Fetc', 'slash after decoding'],
    ['%2e%2e', 'dot-dot'],
    ['a%2Fb', 'encoded slash'],
    ['a%5Cb', 'encoded backslash'],
    ['file:%2F%2Fetc', 'scheme'],
    ['file%3A', 'encoded scheme'],
    ['T-1%00', 'NUL'],
    ['%E0%A4%A', 'malformed percent-encoding'],
    ['%zz', 'bad escape'],
  ])('refuses %s (%s) with -32602', async (value) => {
    const e = await readError(conn, `support://tickets/${value}`);
    expect(e.code).toBe(-32602);
  });

  it('allows slashes in {+path} variables but still refuses dot-dot segments', async () => {
    const ok = await conn.client.readResource({ uri: 'docs://files/guides/intro%20one.md' });
    expect(ok.contents[0]).toMatchObject({ text: 'file:guides/intro one.md' });
    expect((await readError(conn, 'docs://files/a/..%2Fb')).code).toBe(-32602);
    expect((await readError(conn, 'docs://files/a%2F%2E%2E%2Fb')).code).toBe(-32602);
    // A literal dot segment is resolved by URL parsing before matching: it cannot climb out of the template.
    expect((await conn.client.readResource({ uri: 'docs://files/a/%2e%2e/b' })).contents[0]).toMatchObject({ text: 'file:b' });
    expect((await readError(conn, 'docs://files/http:%2F%2Fevil')).code).toBe(-32602);
  });

  it.each([
    ['/etc/passwd', 'absolute path'],
    ['%2Fetc%2Fpasswd', 'encoded absolute path'],
    ['//evil.example/x', 'authority prefix'],
    ['%252e%252e%252fsecret', 'double encoding'],
    ['%EF%BC%8E%EF%BC%8E/secret', 'fullwidth dots'],
    ['..%20/secret', 'dot-dot with a blank'],
  ])('refuses %s (%s) in a {+path} variable before the handler runs', async (value) => {
    const e = await readError(conn, `docs://files/${value}`);
    expect(e.code).toBe(-32602);
    expect(e.message).toMatch(/Template variable 'path'/);
  });

  it('answers unknown URIs and ResourceNotFound with -32602', async () => {
    expect(await readError(conn, 'support://nope')).toMatchObject({ code: -32602, message: 'Resource not found: support://nope' });
    expect(await readError(conn, 'support://tickets/T-0000')).toMatchObject({ code: -32602, message: 'Resource not found: support://tickets/T-0000' });
  });

  it('hides unexpected handler errors', async () => {
    const reported: unknown[] = [];
    const own = await connect(mode, () => createServer({ onError: (error) => reported.push(String(error)) }));
    try {
      const e = await readError(own, 'support://tickets/T-6666');
      expect(e).toMatchObject({ code: -32603, message: 'Internal error reading resource ticket.' });
      expect(reported).toEqual(['Error: secret stack /srv/app/db.ts']);
    } finally {
      await own.close();
    }
  });

  it('lists template instances with expanded URIs', async () => {
    const r = await conn.client.listResources();
    const tickets = r.resources.filter((x) => x.uri.startsWith('support://tickets/'));
    expect(tickets).toEqual([
      expect.objectContaining({ uri: 'support://tickets/T-1001', name: 'First', mimeType: 'application/json' }),
      expect.objectContaining({ uri: 'support://tickets/T-1002', name: 'support://tickets/T-1002', title: 'Second', description: 'The second' }),
    ]);
  });
});

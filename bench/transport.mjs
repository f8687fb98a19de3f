/**
 * The transport's floor: a `node:http` server that does no MCP work. It reads and parses each POST body
 * and answers the JSON-RPC result a 2026-07-28 `tools/call` of the benchmark gets (same size, same
 * headers), so the HTTP rows can show what Node's HTTP server, the loopback socket and the load client
 * cost per call before any server does anything. `node transport.mjs --http --port <port>`.
 */
import { createServer } from 'node:http';

const ITEM = { id: 'I-1', name: 'Sample', status: 'active', price: { amountMinor: 1500, currency: 'EUR' } };
const result = { content: [{ type: 'text', text: JSON.stringify(ITEM) }], structuredContent: ITEM, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'synth-1000', version: '1.0.0' } } };

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = undefined;
    }
    const text = JSON.stringify({ result, jsonrpc: '2.0', id: body?.id ?? null });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
}).listen(port, '127.0.0.1');

// One MCP tool call with the SDK's client over Streamable HTTP, for tests that check a rule on
// both surfaces: the answer's structured content, or the problem REST would have sent.
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export interface ToolAnswer {
  isError: boolean;
  body: any;
}

/** `edge` is the edge's URL (reached with `fetch`) or a test app (reached through its own `fetch`, socket or not). */
export async function callMcpTool(
  edge: string | { url: string; fetch: (url: string | URL, init?: RequestInit) => Promise<Response> },
  key: string,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer> {
  const { url, fetch: send } = typeof edge === 'string' ? { url: edge, fetch } : edge;
  const client = new McpClient({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { fetch: send, requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  try {
    const got: any = await client.callTool({ name, arguments: args });
    if (got.isError) return { isError: true, body: JSON.parse(got.content[0].text) };
    return { isError: false, body: got.structuredContent };
  } finally {
    await client.close();
  }
}

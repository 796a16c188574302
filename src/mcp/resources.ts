import type { McpServerLink } from "./server-link.js";

/** One piece of a resource's contents: text, or base64 `blob` for binary data. */
export interface McpResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** A resource a server offers, with a reader that goes through the live connection. */
export interface McpResource {
  /** The server's key in `connectMcp`'s map. */
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Reads the contents now (reconnecting if the server was restarted). */
  read(): Promise<McpResourceContent[]>;
}

/**
 * Lists a server's resources, following pagination. A server that does not declare the
 * resources capability has none, rather than an error.
 *
 * @example
 * const [schema] = await listResources(link);
 * console.log((await schema.read())[0].text);
 */
export async function listResources(link: McpServerLink): Promise<McpResource[]> {
  const session = await link.session();
  if (!session.client.getServerCapabilities()?.resources) return [];
  const found: McpResource[] = [];
  let cursor: string | undefined;
  do {
    const page = await session.client.listResources(cursor ? { cursor } : undefined);
    for (const r of page.resources) {
      found.push({
        server: link.server.name,
        uri: r.uri,
        name: r.name,
        ...(r.title ? { title: r.title } : {}),
        ...(r.description ? { description: r.description } : {}),
        ...(r.mimeType ? { mimeType: r.mimeType } : {}),
        read: async () => {
          const { contents } = await (await link.session()).client.readResource({ uri: r.uri });
          return contents.map((c: any) => ({
            uri: c.uri,
            ...(c.mimeType ? { mimeType: c.mimeType } : {}),
            ...(typeof c.text === "string" ? { text: c.text } : {}),
            ...(typeof c.blob === "string" ? { blob: c.blob } : {}),
          }));
        },
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return found;
}

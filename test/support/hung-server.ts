import { type AddressInfo, type Socket, createServer } from 'node:net';

/** A node that accepts connections and never answers: hung (a stopped process), not refused. */
export async function hungServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const hung = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const { port } = hung.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hung.close(resolve));
    },
  };
}

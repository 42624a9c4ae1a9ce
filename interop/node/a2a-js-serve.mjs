// Serves an @a2a-js/sdk executor on loopback, for the server scripts:
// JSON-RPC at /a2a/jsonrpc, HTTP+JSON at /a2a/rest and the card at
// /.well-known/agent-card.json. Prints the base URL, then serves until
// stdin closes. With --no-streaming on the command line, the card declares
// no streaming.
import express from 'express';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';

export function serveAgent({ name, description, skill }, executor) {
  const app = express();
  const server = app.listen(0, '127.0.0.1', () => {
    const base = `http://127.0.0.1:${server.address().port}`;
    const card = {
      name, description, version: '1.0.0',
      supportedInterfaces: [
        { url: base + '/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
        { url: base + '/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
      ],
      provider: undefined, documentationUrl: undefined, iconUrl: undefined,
      capabilities: { streaming: !process.argv.includes('--no-streaming'), pushNotifications: false, extensions: [], extendedAgentCard: false },
      securitySchemes: {}, securityRequirements: [], signatures: [],
      defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
      skills: [{ ...skill, examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    };
    const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
    app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
    app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
    app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
    console.log(base);
  });
  process.stdin.resume();
  process.stdin.on('end', () => { server.close(); process.exit(0); });
}

/**
 * The contract's plumbing: fastify-type-provider-zod validates bodies and serialises answers with the
 * protocol's zod schemas, and @fastify/swagger builds the OpenAPI 3.1 document from the same route schemas
 * (GET /api/openapi.json), so that the document cannot drift from what the server checks and sends. Public:
 * it describes the API, it holds no data. Register it before the routes: swagger collects them as they come.
 */
import fastifySwagger from '@fastify/swagger';
import { APP_VERSION } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Talkgroup HTTP API',
        version: APP_VERSION,
        description: 'The calls of the product specification, section 7. Access per call: docs/api.md.',
      },
      components: {
        securitySchemes: { accessToken: { type: 'apiKey', in: 'header', name: 'x-access-token' } },
      },
      security: [{ accessToken: [] }],
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

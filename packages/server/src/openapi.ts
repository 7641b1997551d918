/**
 * The contract's plumbing: fastify-type-provider-zod validates bodies and serialises answers with the
 * protocol's zod schemas, and @fastify/swagger builds the OpenAPI 3.1 document from the same route schemas
 * (GET /api/openapi.json), so that the document cannot drift from what the server checks and sends. Public:
 * it describes the API, it holds no data. Register it before the routes: the routes are noted as they come.
 *
 * The document is built on its first request, not at start (issue 36, memory): @fastify/swagger and its YAML
 * and JSON-schema libraries (about 3 MB of a 110 MB budget) are loaded then, into a Fastify instance of their
 * own that gets the same routes (their schemas, no handlers) and is closed once the document is made.
 */
import { APP_VERSION } from '@talkgroup/protocol';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';

/**
 * Fastify's schema compilers from the start (its `schemaController` option) rather than set afterwards: every
 * schema is zod's, and Fastify never loads its default ones (Ajv and fast-json-stringify, about 2 MB of the
 * heap: docs/memory.md).
 */
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
export const zodSchemaController: FastifyServerOptions['schemaController'] = {
  compilersFactory: {
    // Fastify types these factories for Ajv's schemas; the compilers take the routes' zod schemas.
    buildValidator: (() => validatorCompiler) as unknown as CompilersFactory['buildValidator'],
    buildSerializer: (() => serializerCompiler) as unknown as CompilersFactory['buildSerializer'],
  },
};

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  let document: Promise<unknown> | undefined;
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => {
    document ??= describe(routes).catch((error: unknown) => {
      document = undefined;
      throw error;
    });
    return document;
  });
}

/** The OpenAPI document of these routes, as @fastify/swagger makes it. */
async function describe(routes: RouteOptions[]): Promise<unknown> {
  const { default: fastifySwagger } = await import('@fastify/swagger');
  // Every route as it was noted, HEAD ones included: none is added by this instance itself.
  const paper = Fastify({ schemaController: zodSchemaController, exposeHeadRoutes: false });
  try {
    await paper.register(fastifySwagger, {
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
    await paper.register(async (scope) => {
      for (const { method, url, schema, config, constraints } of routes)
        scope.route({ method, url, schema, config, constraints, handler: async () => null });
    });
    await paper.ready();
    return paper.swagger();
  } finally {
    await paper.close();
  }
}

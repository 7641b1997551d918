/**
 * GET /api/openapi.json: an OpenAPI 3.1 description of the HTTP contract, generated from the protocol's zod
 * schemas (z.toJSONSchema), so that it cannot drift from what the server validates. Who may call what is in
 * docs/api.md. Public: it describes the API, it holds no data.
 */
import * as protocol from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

const PUBLIC_CALLS = new Set([protocol.Login.path, protocol.SignUpUser.path, protocol.IsValidToken.path]);

const errorResponse = {
  description: '{ success: false, result: "<clear sentence>" }',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { success: { const: false }, result: { type: 'string' } },
        required: ['success', 'result'],
      },
    },
  },
};

function errors(secured: boolean) {
  return {
    '400': { ...errorResponse, description: 'Bad input: the sentence names the field and why.' },
    ...(secured
      ? {
          '401': { ...errorResponse, description: 'Missing, invalid, expired or revoked token.' },
          '403': { ...errorResponse, description: 'Not allowed for this role or channel (see docs/api.md).' },
        }
      : {}),
    '404': { ...errorResponse, description: 'Unknown id.' },
  };
}

const ok = {
  description: '{ success: true, ... } with the fields docs/api.md lists for this call.',
  content: { 'application/json': { schema: { type: 'object', properties: { success: { const: true } } } } },
};

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest;
}

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, value] of Object.entries(protocol)) {
    const call = value as { path?: unknown; body?: unknown };
    if (typeof call?.path !== 'string' || !(call.body instanceof z.ZodType)) continue;
    const secured = !PUBLIC_CALLS.has(call.path);
    paths[call.path] = {
      post: {
        operationId: name,
        ...(secured ? {} : { security: [] }),
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(call.body) } } },
        responses: { '200': ok, ...errors(secured) },
      },
    };
  }
  paths[protocol.UPLOAD_FILE_PATH] = {
    post: {
      operationId: 'UploadFile',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              ...jsonSchema(protocol.UploadFileFields),
              properties: {
                ...(jsonSchema(protocol.UploadFileFields).properties as object),
                image: {
                  type: 'string',
                  format: 'binary',
                  description: `jpeg, png, bmp, gif or webp (recognised by its bytes), at most ${protocol.IMAGE_MAX_LABEL}`,
                },
              },
              required: ['image', 'channelId'],
            },
          },
        },
      },
      responses: {
        '200': ok,
        ...errors(true),
        '413': { ...errorResponse, description: `The image is larger than ${protocol.IMAGE_MAX_LABEL}.` },
      },
    },
  };
  paths[protocol.GET_ALL_MATERIAL_TYPES_PATH] = {
    get: { operationId: 'GetAllMaterialTypes', responses: { '200': ok, ...errors(true) } },
  };
  paths['/files/{name}'] = {
    get: {
      operationId: 'GetFile',
      security: [],
      description:
        'A chat image. The path comes signed and expiring in a message (file.path); the signature is the proof.',
      parameters: [
        { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'uid', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'exp', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'sig', in: 'query', required: true, schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'The image, with its type, nosniff and its original name.' },
        '403': {
          ...errorResponse,
          description: 'Guessed, tampered or expired path, or a reader who left the channel.',
        },
        '404': { ...errorResponse, description: 'The message and its file were deleted.' },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Talkgroup HTTP API',
      version: protocol.APP_VERSION,
      description: 'The calls of the product specification, section 7. Access per call: docs/api.md.',
    },
    components: {
      securitySchemes: { accessToken: { type: 'apiKey', in: 'header', name: 'x-access-token' } },
    },
    security: [{ accessToken: [] }],
    paths,
  };
}

export function openApiRoutes(app: FastifyInstance): void {
  let document: Record<string, unknown> | undefined;
  app.get('/api/openapi.json', async () => {
    document ??= openApiDocument();
    return document;
  });
}

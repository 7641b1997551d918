import * as protocol from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './harness.ts';

describe('OpenAPI description', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startApp('sqlite');
  });
  afterEach(async () => {
    await app.close();
  });

  it('describes every call with the body schema the server validates', async () => {
    const response = await app.fastify.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    for (const path of [
      '/user/api/login',
      '/user/api/createChannel',
      '/user/api/getAllActivities/',
      '/user/api/deleteOldActivities',
      '/user/api/getchannelmessagelistForAdmin',
      '/user/api/uploadFile',
      '/user/api/getinvitationlists',
      '/device/getDeviceByMacAddress',
    ]) {
      expect(document.paths[path]?.post, path).toBeDefined();
    }
    expect(document.paths['/device/getAllMaterialTypes/'].get).toBeDefined();
    const timeFrame =
      document.paths['/user/api/deleteOldActivities'].post.requestBody.content['application/json'].schema.properties
        .timeFrame;
    expect(timeFrame.enum).toEqual(['1m', '2w', '1w']);
    expect(document.paths['/user/api/login'].post.security).toEqual([]);
    expect(document.paths['/user/api/createChannel'].post.security).toBeUndefined();
    expect(document.security).toEqual([{ accessToken: [] }]);
    const upload = document.paths['/user/api/uploadFile'].post.requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(upload.properties).sort()).toEqual(['channelId', 'image', 'textMsg', 'userId']);
  });

  it('describes every call of the protocol, its access, its answer, and the file links', async () => {
    const document = (await app.fastify.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const calls = Object.values(protocol).flatMap((value) => (protocol.isCall(value) ? [value] : []));
    for (const call of calls) {
      const operation = document.paths[call.path]?.[call.method === 'GET' ? 'get' : 'post'];
      expect(operation, call.path).toBeDefined();
      expect(operation.security, call.path).toEqual(call.access === 'public' ? [] : undefined);
      expect(operation.description, call.path).toContain(`Access: ${call.access} `);
      expect(operation.responses['200'].content['application/json'].schema.type, call.path).toBe('object');
    }
    const file = document.paths['/files/{name}'].get;
    expect(file.security).toEqual([]);
    expect(file.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['exp', 'name', 'sig', 'uid']);
  });
});

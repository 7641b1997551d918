/**
 * Live video's socket events (issue 61; video/live.ts decides): a page starts and stops its stream in one of its
 * channels, a viewer takes and leaves a place, the member answers a dispatcher's request, and the mesh's offer,
 * answer and candidates pass only between a stream's sharer socket and one of its viewers' (anyone else is refused,
 * nothing relayed). Through the media server (JANUS_URL) the sharer's page publishes (`video_publish`, answered
 * with Janus's answer), a viewer's page answers the offer it gets after `video_watch` and picks its layer
 * (`video_layer`), and the answers and candidates go to Janus instead. A refusal's acknowledgement carries its code, an HTTP-like status and the sentence in the
 * language of the page's handshake (Accept-Language). A socket that goes ends its streams and leaves its places.
 * Issue 69: VIDEO_START_LIMIT starts a minute per user (429).
 */
import {
  type ServerMessageParams,
  VideoCandidate,
  VideoDescription,
  VideoLayerChoice,
  VideoPublish,
  VideoRequestAnswer,
  VideoStart,
  VideoStop,
  VideoWatch,
} from '@talkgroup/protocol';
import { HttpError } from '../../http/errors.ts';
import { languageOf, serverText } from '../../http/messages.ts';
import { refusedByJanus } from '../../video/janus-video.ts';
import { isRefusal, type Refusal } from '../../video/live.ts';
import type { SignalKind } from '../../video/live-signals.ts';
import type { Concern } from '../context.ts';
import { parse, SocketInputError } from '../socket-tasks.ts';

export const video: Concern = (socket, scope) => {
  const { videos } = scope;
  const party = () => ({
    socketId: socket.id,
    userId: socket.data.userId,
    name: socket.data.name,
    role: socket.data.role,
    mapRight: socket.data.mapRight,
    language: languageOf({ headers: socket.handshake.headers }),
  });
  const refuse = ({ refused, status, params }: Refusal) => ({
    success: false as const,
    status,
    code: refused,
    result: serverText(refused, params as ServerMessageParams, languageOf({ headers: socket.handshake.headers })),
  });

  scope.answer('video_start', async (payload) => {
    const body = parse(VideoStart, payload, 'video_start');
    const at = scope.requireRoom('video_start', body.room);
    // VIDEO_START_LIMIT per user, on every instance (issue 69): 429 and its sentence past it.
    const limited = await scope.services.videoLimits.starts(socket.data.userId).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof HttpError && error.statusCode === 429)
          return refuse({ refused: error.code, status: 429, params: error.params });
        throw error;
      },
    );
    if (limited) return limited;
    const started = await videos.start(party(), at, body.requestId);
    if (isRefusal(started)) return refuse(started);
    // Answered first: the page starts its media with the streamId; the audience hears of it just after.
    setImmediate(() => void started.announce().catch((error) => scope.services.faults.fault('socket_event', error)));
    const through = started.stream.janusUrl ? { maxViewers: null, via: 'server' as const } : undefined;
    return {
      success: true,
      streamId: started.stream.streamId,
      ...(through ?? { maxViewers: videos.maxViewers, via: 'mesh' as const }),
    };
  });

  scope.answer('video_publish', async (payload) => {
    const { streamId, sdp } = parse(VideoPublish, payload, 'video_publish');
    const answer = await videos.publish(socket.id, streamId, sdp).catch(refusedByJanus('video_publish'));
    if (answer === undefined)
      throw new SocketInputError('video_publish: no live video of this page goes through the media server.');
    return { success: true, sdp: answer };
  });

  scope.answer('video_layer', async (payload) => {
    const { streamId, layer } = parse(VideoLayerChoice, payload, 'video_layer');
    if (!(await videos.layer(socket.id, streamId, layer).catch(refusedByJanus('video_layer'))))
      throw new SocketInputError('video_layer: this page watches no such live video through the media server.');
    return { success: true };
  });

  scope.answer('video_stop', async (payload) => {
    const body = parse(VideoStop, payload, 'video_stop');
    if (!(await videos.stop(socket.data.userId, body.streamId, body.room)))
      return refuse({ refused: 'video_not_found', status: 404 });
    return { success: true };
  });

  scope.answer('video_watch', async (payload) => {
    const { streamId } = parse(VideoWatch, payload, 'video_watch');
    const watched = await videos.watch(party(), streamId);
    return isRefusal(watched) ? refuse(watched) : { success: true, streamId };
  });

  scope.answer('video_unwatch', async (payload) => {
    const { streamId } = parse(VideoWatch, payload, 'video_unwatch');
    return (await videos.unwatch(socket.id, streamId))
      ? { success: true }
      : refuse({ refused: 'video_not_found', status: 404 });
  });

  scope.answer('video_request_answer', async (payload) => {
    const { requestId, accepted } = parse(VideoRequestAnswer, payload, 'video_request_answer');
    const answered = await videos.requests.answer(socket.data.userId, requestId, accepted);
    return answered ? { success: true } : refuse({ refused: 'video_request_not_found', status: 404 });
  });

  const signal = (event: 'video_offer' | 'video_answer' | 'video_candidate', kind: SignalKind) =>
    scope.on(event, async (payload) => {
      const body = parse(kind === 'candidate' ? VideoCandidate : VideoDescription, payload, event);
      if (kind !== 'offer') {
        const signal =
          'sdp' in body
            ? { kind: 'answer' as const, sdp: body.sdp }
            : { kind: 'candidate' as const, candidate: body.candidate };
        const janus = await videos.toJanus(body.streamId, socket.id, signal).catch(refusedByJanus(event));
        if (janus === undefined)
          throw new SocketInputError(`${event}: no such live video of yours, or not with this page.`);
        if (janus) return;
      }
      const route = await videos.relay(body.streamId, socket.id, kind, body.viewerSocketId);
      if (!route) throw new SocketInputError(`${event}: no such live video of yours, or not with this page.`);
      const { viewerSocketId: _, ...signalled } = body;
      const sent = route.fromSharer ? signalled : { ...signalled, viewerSocketId: socket.id };
      scope.io.to(route.to).emit(event, sent as never);
    });
  signal('video_offer', 'offer');
  signal('video_answer', 'answer');
  signal('video_candidate', 'candidate');

  socket.on('disconnect', () => {
    void videos.socketGone(socket.id).catch((error) => scope.services.faults.fault('socket_event', error));
  });
};

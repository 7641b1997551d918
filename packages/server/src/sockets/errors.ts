/** A bad payload or a refused action on a socket: the client gets an `error` event with this message. */
export class SocketInputError extends Error {}

/**
 * What committed changes tell the rest of the process: which people's data changed (the ws hub
 * pokes their sockets) and which pings were just delivered (new_ping, Web Push). Emitted only
 * after the transaction commits, so a listener never announces a change that was rolled back.
 * With several server nodes, a pub/sub fan-out re-emits these on every node.
 */
import { EventEmitter } from 'node:events';

export interface ChangeEventMap {
  changed: [userIds: string[]];
  newPing: [receiverId: string, ping: unknown];
  anchorRequest: [receiverId: string, anchor: unknown];
}

export class ChangeEvents extends EventEmitter<ChangeEventMap> {}

/**
 * One send to one person on SQLite: its checks in one statement, the insert left to the caller
 * (test/send-one.ts).
 */
import { describeSendOne } from '../../test/send-one';
import { openDatabase } from './connection';

describeSendOne('SQLite', (opts) => openDatabase(':memory:', opts));

/**
 * A reaction's read on SQLite: one statement, the write left to the caller (test/react-one.ts).
 */
import { describeReactOne } from '../../test/react-one';
import { openDatabase } from './connection';

describeReactOne('SQLite', (opts) => openDatabase(':memory:', opts));

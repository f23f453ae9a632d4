/**
 * The reference: a bare Koa app with one route that answers a constant, in its own process like
 * the PingMe server, on another port. Koa and @koa/router are the server's own versions.
 */
import Router from '@koa/router';
import Koa from 'koa';

const BODY = { ok: true };
const app = new Koa();
const router = new Router();
router.post('/api/pings', (ctx) => {
  ctx.status = 201;
  ctx.body = BODY;
});
app.use(router.routes());
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ type: 'ready', port });
});
process.on('message', (m) => {
  if (m === 'stop') server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));

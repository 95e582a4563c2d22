// A small OpenAI-compatible chat server on Node.js's own HTTP stack, for the engine's real-server tests.
// Usage: node openai-server.mjs PORT [--end-after-answer]
// --end-after-answer: after each answer the server half-closes the connection (FIN at once, later requests on it
// are read and never answered), as llama.cpp's llama-server does after a stream.
// Model "broken": a streamed answer sends one token, then an error event, as a server failing mid-stream does.
import http from 'node:http';

const port = Number(process.argv[2]);
const endAfterAnswer = process.argv.includes('--end-after-answer');

function tokens(body) {
  return Math.max(1, Number(body.max_completion_tokens ?? body.max_tokens ?? 16));
}

function chunk(id, content, finish) {
  return 'data: ' + JSON.stringify({
    id, object: 'chat.completion.chunk', created: 0, model: 'node',
    choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }],
  }) + '\n\n';
}

function answered(socket) {
  if (endAfterAnswer && socket) {
    socket.end();
  }
}

function chat(req, res, body) {
  const socket = req.socket; // detached from res once the answer is out
  const n = tokens(body);
  const id = 'chatcmpl-' + Math.random().toString(36).slice(2);
  if (!body.stream) {
    const text = Array.from({ length: n }, (_, i) => 'tok' + i).join(' ');
    const payload = JSON.stringify({
      id, object: 'chat.completion', created: 0, model: 'node',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'length' }],
      usage: { prompt_tokens: 1, completion_tokens: n, total_tokens: n + 1 },
    });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
    res.end(payload, () => answered(socket));
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  let i = 0;
  const next = () => {
    if (body.model === 'broken' && i === 1) {
      res.end('error: ' + JSON.stringify({ error: { code: 500, message: 'invalid UTF-8 in the answer',
        type: 'server_error' } }) + '\n\n', () => answered(socket));
      return;
    }
    if (i < n) {
      res.write(chunk(id, (i === 0 ? '' : ' ') + 'tok' + i, null));
      i++;
      setImmediate(next);
      return;
    }
    res.end(chunk(id, null, 'length') + 'data: [DONE]\n\n', () => answered(socket));
  };
  next();
}

const server = http.createServer((req, res) => {
  if (req.socket.writableEnded) {
    return; // a request that came after this connection was ended: taken, never answered
  }
  let data = '';
  req.setEncoding('utf8');
  req.on('data', (d) => { data += d; });
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/health') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"status":"ok"}');
    } else if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"object":"list","data":[{"id":"node","object":"model"}]}');
    } else if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      let body;
      try {
        body = JSON.parse(data);
      } catch {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end('{"error":{"message":"invalid JSON","type":"invalid_request_error"}}');
        return;
      }
      chat(req, res, body);
    } else {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"error":{"code":404,"message":"File Not Found","type":"not_found_error"}}');
    }
  });
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));

/**
 * Preloaded (`node -r bench/start-up-marks.cjs`) by bench/start-up-phases.ts: marks the phases of
 * one run of the command that can be seen from outside its code, and appends them (name, wall ms
 * and CPU ms since the process started) as one JSON line to `$START_UP_MARKS` at exit.
 * A CommonJS preload: it runs before the shim, so its first mark is Node's own start.
 */
const { writeFileSync } = require('node:fs');
const fs = require('node:fs');

const marks = [];
const mark = (name) => {
  const cpu = process.cpuUsage();
  marks.push([name, performance.now(), (cpu.user + cpu.system) / 1000]);
};
mark('Node started');

// The bundle's and the definition's reads: the shim's ES modules are loaded by the first.
const readFileSync = fs.readFileSync;
fs.readFileSync = function markedRead(path, ...rest) {
  const file = String(path);
  if (file.endsWith('.cjs')) mark('shim loaded, bundle read');
  if (file.endsWith('local-definition.json')) mark('definition read (engine loaded)');
  return readFileSync.call(this, path, ...rest);
};

// The first Nomad request, and its answer (the command's client is Node's `http.request`).
// Patched on first require by the command, so this preload loads no `node:http` itself.
const Module = require('node:module');
const load = Module._load;
let patched = false;
Module._load = function markedLoad(request, ...rest) {
  const exported = load.call(this, request, ...rest);
  if (!patched && (request === 'node:http' || request === 'http')) {
    patched = true;
    const send = exported.request;
    let first = true;
    exported.request = function markedRequest(...args) {
      if (!first) return send.apply(this, args);
      first = false;
      mark('first request sent');
      const outgoing = send.apply(this, args);
      outgoing.once('response', () => mark('first answer'));
      return outgoing;
    };
  }
  return exported;
};

process.on('exit', () => {
  mark('exit');
  writeFileSync(process.env.START_UP_MARKS, `${JSON.stringify(marks)}\n`, { flag: 'a' });
});

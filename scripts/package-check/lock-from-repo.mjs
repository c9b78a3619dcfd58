/**
 * `node lock-from-repo.mjs <repository lock> <package>...`, in a folder where the package's tarball
 * is already installed: adds the named packages to its package.json and package-lock.json at the
 * versions the repository locks, with every package they need, so that `npm ci --offline`
 * installs them from the npm cache alone. (`npm install <name>@<version>` asks the registry for the
 * package's document, which `npm ci` never caches; a lock file names each tarball and its
 * integrity, which the cache holds.)
 */
import { readFileSync, writeFileSync } from 'node:fs';

const [repoLockPath, ...names] = process.argv.slice(2);
const repo = JSON.parse(readFileSync(repoLockPath, 'utf8')).packages;
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));

/** Where Node would find `name` from the package at `from` in the repository's tree. */
function resolve(from, name) {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const path = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (repo[path] !== undefined) return path;
    if (dir === '') return undefined;
  }
}

const wanted = [];
for (const name of names) {
  const path = `node_modules/${name}`;
  if (repo[path] === undefined) throw new Error(`${name} is not in ${repoLockPath}`);
  manifest.dependencies[name] = repo[path].version;
  wanted.push(path);
}
for (const path of wanted) {
  if (lock.packages[path] !== undefined) continue;
  // A user's app depends on them: the repository's dev flags do not apply.
  const { dev, devOptional, peer, ...entry } = repo[path];
  lock.packages[path] = entry;
  const deps = { ...entry.dependencies, ...entry.optionalDependencies };
  for (const name of Object.keys(deps)) {
    const found = resolve(path, name);
    if (found !== undefined) wanted.push(found);
    else if (!(name in (entry.optionalDependencies ?? {})))
      throw new Error(`${path} needs ${name}, not locked`);
  }
}
lock.packages[''].dependencies = manifest.dependencies;
writeFileSync('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);

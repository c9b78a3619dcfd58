/**
 * `node cdk-init-tsconfig.mjs <template tsconfig.json> <file>...`: prints the tsconfig.json that
 * `cdk init app --language typescript` writes (its template, read from the aws-cdk CLI package),
 * changed only where a package check must: `skipLibCheck` off, so that tsc checks the package's
 * declarations as well as the app, and `files` naming what to compile.
 */
import { readFileSync } from 'node:fs';

const [templatePath, ...files] = process.argv.slice(2);
const template = JSON.parse(readFileSync(templatePath, 'utf8'));
if (template.compilerOptions?.strict !== true) throw new Error(`${templatePath}: not a strict tsconfig`);
template.compilerOptions.skipLibCheck = false;
template.files = files;
process.stdout.write(`${JSON.stringify(template, null, 2)}\n`);

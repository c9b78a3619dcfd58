#!/usr/bin/env node
// `npx nomad-restart`: runs the TypeScript entry point through tsx's loader (no build step).
import { register } from 'tsx/esm/api';

register();
await import('./nomad-restart.ts');

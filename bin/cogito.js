#!/usr/bin/env node
// The installed `cogito` command: run the TypeScript entry through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('./cogito.ts');

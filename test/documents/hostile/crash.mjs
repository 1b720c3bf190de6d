import process from 'node:process';

// An extractor whose library dies outright (a native crash ends the process).
export async function extract() {
  process.abort();
}

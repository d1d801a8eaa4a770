import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from './paths.js';

/** The commit the code under test is at, and whether the working tree had changes on top of it. */
export function codeRevision(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no').length > 0;
    return dirty ? `${commit} with uncommitted changes` : commit;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

/**
 * The architecture's arrows (README "Architecture"): the API process loads no activity or workflow
 * module. Checked in a fresh Node process (this one has loaded everything), on the compiled code.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';

describe('architecture', () => {
  it('loading the API app loads no activity or workflow module', () => {
    const dist = path.resolve(__dirname, '../../src');
    const script = `
      require(${JSON.stringify(path.join(dist, 'api/app.js'))});
      require(${JSON.stringify(path.join(dist, 'api/main.js').replace('main.js', 'server.js'))});
      console.log(JSON.stringify(Object.keys(require.cache)));`;
    const loaded: string[] = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    const ours = loaded.filter((f) => f.startsWith(dist)).map((f) => path.relative(dist, f));
    expect(ours, 'the API loaded its own modules').to.include('api/app.js');
    expect(ours.filter((f) => f.startsWith('activities/') || f.startsWith('workflows/'))).to.deep.equal([]);
  });
});

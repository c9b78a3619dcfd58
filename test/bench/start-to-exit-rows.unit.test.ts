import { caseRows, median, roundOrder, type Summary, summarise } from '../../bench/start-to-exit-rows';

const summary = (cpuMs: number, wallMs: number): Summary => ({
  runs: 3,
  cpuMs,
  wallMs,
  requests: '4',
  codes: '1',
});

describe('start-to-exit rows', () => {
  describe('roundOrder', () => {
    it('rotates the commands by one each round, so none always runs first', () => {
      // Act
      const rounds = [0, 1, 2, 3].map((round) => roundOrder(['a', 'b', 'c'], round).join(''));

      // Assert
      expect(rounds).toEqual(['abc', 'bca', 'cab', 'abc']);
    });
  });

  describe('summarise', () => {
    it('takes the median CPU and wall, and lists distinct request counts and exit codes', () => {
      // Arrange
      const run = (cpuMs: number, wallMs: number, code: number, requests: number) => ({
        run: { cpuMs, wallMs, code },
        requests,
      });

      // Act
      const s = summarise([run(300, 90, 0, 16), run(100, 400, 0, 15), run(200, 200, 1, 16)]);

      // Assert
      expect(s).toEqual({ runs: 3, cpuMs: 200, wallMs: 200, requests: '15/16', codes: '0/1' });
    });

    it('takes the upper middle value of an even count', () => {
      // Act / Assert
      expect(median([4, 1, 3, 2])).toBe(3);
    });
  });

  describe('caseRows', () => {
    it('gives the ratios ours / nomad and passes only when CPU and wall are both within 2×', () => {
      // Arrange
      const nomad = { version: 'Nomad v2.0.6-dev', summary: summary(50, 100) };

      // Act
      const [within, over] = caseRows(
        'job not found',
        [
          { label: 'installed package', summary: summary(100, 150) },
          { label: 'single executable', summary: summary(90, 250) },
        ],
        nomad,
      );

      // Assert
      expect(within?.figure).toBe(
        'CPU 0.100 s, wall 0.150 s, 4 requests; ours / nomad: CPU 2.00×, wall 1.50×',
      );
      expect(within?.nomadCli).toBe('Nomad v2.0.6-dev: CPU 0.050 s, wall 0.100 s, 4 requests (exit 1)');
      expect(within?.verdict).toBe('pass');
      expect(over?.metric).toBe('start to exit, job not found, single executable (median of 3; exit 1)');
      expect(over?.verdict).toBe('MISS');
    });

    it('says why nomad was not run and gives no verdict without it', () => {
      // Act
      const [row] = caseRows('job not found', [{ label: 'checkout', summary: summary(100, 150) }], {
        notRun: 'not run: NOMAD_BIN unset',
      });

      // Assert
      expect(row).toMatchObject({
        figure: 'CPU 0.100 s, wall 0.150 s, 4 requests',
        nomadCli: 'not run: NOMAD_BIN unset',
        verdict: 'info',
      });
    });
  });
});

import { SEA_ARCHES, seaFileName, wrongArchitectureMessage } from '../../lib/sea/architecture';

describe('wrongArchitectureMessage', () => {
  it('lets an executable run in the Node it was built for', () => {
    // Act
    const messages = SEA_ARCHES.map((arch) =>
      wrongArchitectureMessage(arch, arch, arch === 'x64' ? 'x86_64' : 'aarch64', 'linux'),
    );

    // Assert
    expect(messages).toEqual([undefined, undefined]);
  });

  it('lets an emulated executable run when its Node is the architecture it was built for', () => {
    // Act
    const message = wrongArchitectureMessage('x64', 'x64', 'aarch64', 'linux');

    // Assert
    expect(message).toBeUndefined();
  });

  it('names the download that fits when the recorded target is not Node’s architecture', () => {
    // Act
    const message = wrongArchitectureMessage('arm64', 'x64', 'x86_64', 'linux');

    // Assert
    expect(message).toBe(
      'nomad-restart: this executable (nomad-restart-linux-arm64) is built for linux arm64, this machine is linux x64: download nomad-restart-linux-x64 instead',
    );
  });

  it('names the arm64 download on an arm64 machine', () => {
    // Act
    const message = wrongArchitectureMessage('x64', 'arm64', 'aarch64', 'linux');

    // Assert
    expect(message).toContain('download nomad-restart-linux-arm64 instead');
  });

  it('points at the npm package where no executable is built', () => {
    // Act
    const message = wrongArchitectureMessage('x64', 'ppc64', 'ppc64le', 'linux');

    // Assert
    expect(message).toBe(
      'nomad-restart: this executable (nomad-restart-linux-x64) is built for linux x64, this machine is linux ppc64le: no single executable is built for it: install the npm package (npx nomad-restart) instead',
    );
  });

  it('is one line', () => {
    // Act
    const message = wrongArchitectureMessage('arm64', 'x64', 'x86_64', 'linux') ?? '';

    // Assert
    expect(message).not.toContain('\n');
  });
});

describe('seaFileName', () => {
  it('names each executable as npm run build:sea writes it', () => {
    // Act
    const names = SEA_ARCHES.map(seaFileName);

    // Assert
    expect(names).toEqual(['nomad-restart-linux-x64', 'nomad-restart-linux-arm64']);
  });
});

import { templateReads } from '../../lib/fleet/template-reads';

describe('template-reads', () => {
  describe('templateReads', () => {
    it.each([
      {
        name: 'reads nomadVar in a with block',
        text: '{{ with nomadVar "nomad/jobs/shared/db" }}DB={{ .password }}{{ end }}',
        expected: [{ kind: 'variable', path: 'nomad/jobs/shared/db' }],
      },
      {
        name: 'reads nomadVar with trim markers and no spaces inside the quotes',
        text: '{{- with nomadVar "app/db" -}}\n{{ .user }}\n{{- end -}}',
        expected: [{ kind: 'variable', path: 'app/db' }],
      },
      {
        name: 'reads nomadVar inside parentheses and a pipeline',
        text: '{{ (nomadVar "app/db").password }} {{ index (nomadVar "app/cache") "url" | toUpper }}',
        expected: [
          { kind: 'variable', path: 'app/db' },
          { kind: 'variable', path: 'app/cache' },
        ],
      },
      {
        name: 'reads a nomadVar assigned to a variable',
        text: '{{ $v := nomadVar "app/db" }}{{ $v.password }}',
        expected: [{ kind: 'variable', path: 'app/db' }],
      },
      {
        name: 'reads a raw-string path',
        text: '{{ with nomadVar `app/db` }}{{ end }}',
        expected: [{ kind: 'variable', path: 'app/db' }],
      },
      {
        name: 'trims slashes and spaces and reads the namespace after @, as consul-template does',
        text: '{{ with nomadVar " /app/db@payments.global/ " }}{{ end }}',
        expected: [{ kind: 'variable', path: 'app/db', namespace: 'payments' }],
      },
      {
        name: 'reads nomadVarExists as one variable',
        text: '{{ if nomadVarExists "app/feature" }}on{{ end }}',
        expected: [{ kind: 'variable', path: 'app/feature' }],
      },
      {
        name: 'reads nomadVarList and nomadVarListSafe as prefixes',
        text: '{{ range nomadVarList "nomad/jobs/shared" }}{{ .Path }}{{ end }}{{ range nomadVarListSafe "cfg/" }}{{ end }}',
        expected: [
          { kind: 'variable-prefix', prefix: 'nomad/jobs/shared' },
          { kind: 'variable-prefix', prefix: 'cfg' },
        ],
      },
      {
        name: 'reads a bare nomadVarList as every variable',
        text: '{{ range nomadVarList }}{{ .Path }}{{ end }}{{ range (nomadVarList) }}{{ end }}',
        expected: [
          { kind: 'variable-prefix', prefix: '' },
          { kind: 'variable-prefix', prefix: '' },
        ],
      },
      {
        name: 'reads secret and with secret, write arguments after the path',
        text: '{{ with secret "kv/data/payments/db" }}{{ .Data.data.password }}{{ end }}{{ secret "pki/issue/web" "common_name=web" }}',
        expected: [
          { kind: 'secret', path: 'kv/data/payments/db' },
          { kind: 'secret', path: 'pki/issue/web' },
        ],
      },
      {
        name: 'ignores secrets, which lists keys and reads no value',
        text: '{{ range secrets "kv/metadata/" }}{{ . }}{{ end }}',
        expected: [],
      },
      {
        name: 'reports a path that is not a literal',
        text: '{{ with nomadVar (printf "nomad/jobs/%s" (env "NOMAD_JOB_NAME")) }}{{ end }}{{ with secret $path }}{{ end }}',
        expected: [
          { kind: 'dynamic', fn: 'nomadVar', about: 'variables' },
          { kind: 'dynamic', fn: 'secret', about: 'secrets' },
        ],
      },
      {
        name: 'ignores the names outside actions, in comments and in string literals',
        text: 'nomadVar "a" {{/* nomadVar "b" */}}{{ printf "nomadVar \\"c\\"" }}{{ "}}" }}{{ nomadVar "d" }}',
        expected: [{ kind: 'variable', path: 'd' }],
      },
      {
        name: 'ignores a field or a variable named like a function',
        text: '{{ .secret }} {{ $secret }} {{ .Data.nomadVar }}',
        expected: [],
      },
      {
        name: 'reads nothing from a template without functions',
        text: 'PORT={{ env "NOMAD_PORT_http" }}\n',
        expected: [],
      },
    ])('$name', ({ text, expected }) => {
      // Act
      const reads = templateReads(text);

      // Assert
      expect(reads).toEqual(expected);
    });

    it('reads actions between the template’s own delimiters and ignores {{ }} then', () => {
      // Arrange
      const text = '[[ with nomadVar "app/db" ]][[ end ]] {{ nomadVar "not/an/action" }}';

      // Act
      const reads = templateReads(text, { left: '[[', right: ']]' });

      // Assert
      expect(reads).toEqual([{ kind: 'variable', path: 'app/db' }]);
    });

    it('reads nothing after an action that never closes', () => {
      // Act
      const reads = templateReads('{{ nomadVar "a" }} {{ nomadVar "b"');

      // Assert
      expect(reads).toEqual([{ kind: 'variable', path: 'a' }]);
    });
  });
});

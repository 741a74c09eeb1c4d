import type { PluginKind } from '@netbench/plugin-api';

/** What every scaffold is made from. */
export interface ScaffoldInput {
  readonly kind: PluginKind;
  /** Short name used in specs. */
  readonly name: string;
  readonly packageName: string;
  /** npm spec of the @netbench/plugin-api to develop against (the peer range stays `^<major.minor>`). */
  readonly apiSpec: string;
  readonly apiVersion: string;
}

export type Files = Record<string, string>;

// The toolchain the netbench repository itself builds and tests with.
const DEV_DEPENDENCIES = { '@types/node': '^24.0.0', typescript: '^7.0.2', vitest: '^5.1.1' };

const KIND_SUMMARY: Record<PluginKind, string> = {
  tool: 'tool plugin: measures between two hosts',
  cloud: 'cloud plugin: provides hosts',
  publisher: 'publisher plugin: sends samples somewhere',
};

/**
 * The scaffold's `pretest`: the SDK and vitest need Node >= 22.13, and on an older Node vitest dies with
 * `Map.groupBy is not a function`, which says nothing about the cause. Single quotes only: it runs as `node -e "…"`.
 */
export const NODE_VERSION_CHECK =
  "const [a,b]=process.versions.node.split('.').map(Number);if(a<22||(a===22&&b<13)){console.error('this plugin needs Node >= 22.13 (this is '+process.versions.node+'): @netbench/plugin-api and vitest need it; on an older Node vitest fails with Map.groupBy is not a function');process.exit(1)}";

export function packageJson(input: ScaffoldInput): string {
  const [major = '0', minor = '1'] = input.apiVersion.split('.');
  return `${JSON.stringify(
    {
      name: input.packageName,
      version: '0.1.0',
      description: `netbench ${KIND_SUMMARY[input.kind]} (${input.name})`,
      license: 'Apache-2.0',
      type: 'module',
      main: './dist/index.js',
      types: './dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
      files: ['dist', '!dist/**/*.test.*', '!dist/**/__fixtures__'],
      keywords: ['netbench', 'netbench-plugin', `netbench-${input.kind}`],
      netbench: { kind: input.kind, name: input.name },
      engines: { node: '>=22.13' },
      scripts: { build: 'tsc -p .', pretest: `node -e "${NODE_VERSION_CHECK}"`, test: 'tsc -p . && vitest run', prepack: 'tsc -p .' },
      // netbench loads the plugin with its own SDK; declaring it as a peer keeps one copy.
      peerDependencies: { '@netbench/plugin-api': major === '0' ? `^0.${minor}.0` : `^${major}.0.0` },
      devDependencies: { '@netbench/plugin-api': input.apiSpec, ...DEV_DEPENDENCIES },
    },
    null,
    2,
  )}\n`;
}

export function tsconfig(): string {
  return `${JSON.stringify(
    {
      compilerOptions: {
        target: 'es2023',
        lib: ['es2023'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        types: ['node'],
        strict: true,
        noUncheckedIndexedAccess: true,
        declaration: true,
        sourceMap: true,
        skipLibCheck: true,
        isolatedModules: true,
        verbatimModuleSyntax: true,
        rootDir: 'src',
        outDir: 'dist',
      },
      include: ['src'],
      exclude: ['src/**/*.test.ts'],
    },
    null,
    2,
  )}\n`;
}

export const gitignore = 'node_modules/\ndist/\n*.tgz\n';

export function readme(input: ScaffoldInput, body: string): string {
  const key = input.kind === 'publisher' ? 'type' : input.kind;
  return `# ${input.packageName}

A netbench ${KIND_SUMMARY[input.kind]}: \`${key}: ${input.name}\` in a spec.

## Develop

\`\`\`sh
npm install
npm test          # builds, then runs the netbench conformance kit (src/conformance.test.ts)
\`\`\`

${body}

## Use

\`\`\`sh
npm pack                                     # ${input.packageName}-0.1.0.tgz
netbench plugins add ./${input.packageName}-0.1.0.tgz
netbench plugins info ${input.name}
\`\`\`

or publish it (\`npm publish\`) and \`netbench plugins add ${input.packageName}\`.

The contract each hook follows — when it runs, what it may do, what a
failure means — is in netbench's \`docs/plugins.md\`.
`;
}

/** The name the plugin object has in `src/plugin.ts`: `my-tool` → `myToolPlugin`. */
export function pluginConst(name: string): string {
  return `${name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Plugin`;
}

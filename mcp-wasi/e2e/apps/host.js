// The test host page (apps_host.test.mjs): the official host-side bridge of
// @modelcontextprotocol/ext-apps (AppBridge, PostMessageTransport), bundled by esbuild, rendering
// the view through the sandbox proxy on the second origin. Tool calls and resource-template lists
// from the view go to window.mcp* functions, which the test binds to its official TypeScript SDK
// client connected to the real server; the bridge itself is what the extension ships.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

const LIGHT = {
  '--color-background-primary': '#ffffff',
  '--color-background-secondary': '#f3f4f7',
  '--color-text-primary': '#1d1f24',
  '--color-text-secondary': '#4a5060',
  '--color-border-primary': '#dfe2e8',
  '--font-sans': 'DejaVu Sans, sans-serif',
};
const DARK = {
  '--color-background-primary': '#16181d',
  '--color-background-secondary': '#0b0c0f',
  '--color-text-primary': '#eceef3',
  '--color-text-secondary': '#b5bac5',
  '--color-border-primary': '#2d313a',
  '--font-sans': 'DejaVu Sans, sans-serif',
};

window.hostLog = { calls: [], sizes: [], initialized: false };

/** Renders the view for one tool call: `html` from resources/read, then its input and result. */
window.startHost = async ({ html, sandboxUrl, toolName, toolInput, toolResult, theme }) => {
  document.body.dataset.theme = theme;
  const iframe = document.getElementById('view');
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  const ready = new Promise((resolve) => {
    const listener = (e) => {
      if (e.source === iframe.contentWindow && e.data?.method === 'ui/notifications/sandbox-proxy-ready') {
        window.removeEventListener('message', listener);
        resolve();
      }
    };
    window.addEventListener('message', listener);
  });
  iframe.src = sandboxUrl;
  await ready;

  const bridge = new AppBridge(
    null,
    { name: 'momentum-test-host', version: '1.0.0' },
    { serverTools: {}, serverResources: {} },
    {
      hostContext: {
        theme,
        styles: { variables: theme === 'dark' ? DARK : LIGHT },
        displayMode: 'inline',
        platform: 'web',
        containerDimensions: { maxHeight: 4000 },
        toolInfo: { tool: { name: toolName, inputSchema: { type: 'object' } } },
      },
    },
  );
  bridge.oncalltool = async (params) => {
    window.hostLog.calls.push(params.name);
    return window.mcpCallTool(params.name, params.arguments ?? {});
  };
  bridge.onlistresourcetemplates = async () => window.mcpListResourceTemplates();
  bridge.onsizechange = ({ width, height }) => {
    window.hostLog.sizes.push({ width, height });
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = () => {
      window.hostLog.initialized = true;
      resolve();
    };
  });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  await bridge.sendSandboxResourceReady({ html });
  await initialized;
  await bridge.sendToolInput({ arguments: toolInput });
  await bridge.sendToolResult(toolResult);
  window.hostBridge = bridge;
};

/** The host's theme changes (ui/notifications/host-context-changed). */
window.setHostTheme = (theme) => {
  document.body.dataset.theme = theme;
  return window.hostBridge.sendHostContextChange({ theme, styles: { variables: theme === 'dark' ? DARK : LIGHT } });
};

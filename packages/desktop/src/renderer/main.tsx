import './styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { prefetchRoute } from './lib/prefetch-route';
import { ThemeProvider } from './lib/theme';

// Before React's own listener (registered when the app mounts): the page's data is asked for first.
prefetchRoute();
window.addEventListener('hashchange', () => prefetchRoute());

createRoot(document.getElementById('root')!).render(
  <ThemeProvider>
    <App />
  </ThemeProvider>,
);

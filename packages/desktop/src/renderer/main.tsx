import './styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { ThemeProvider } from './lib/theme';

createRoot(document.getElementById('root')!).render(<ThemeProvider><App /></ThemeProvider>);

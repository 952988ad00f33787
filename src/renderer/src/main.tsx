/** Renderer entry: connects the desktop API (IPC in Electron, WebSocket in browser mode) and mounts the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { connectDesktopApi } from './desktop/connect';
import './ui/base.css';

const api = connectDesktopApi();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App api={api} />
  </StrictMode>,
);

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { Shell } from '../features/shell/Shell';
import { preloadFirstPage } from './preload';
import { store } from './store';

const root = document.getElementById('root');
if (root) {
  preloadFirstPage(store.dispatch, window.location.pathname);
  createRoot(root).render(
    <StrictMode>
      <Provider store={store}>
        <BrowserRouter>
          <Shell />
        </BrowserRouter>
      </Provider>
    </StrictMode>,
  );
}

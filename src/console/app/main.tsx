// The console's entry: reads the session, then shows the sign-in screen or the console itself.
import './styles.css'
import { render } from 'preact'
import { App } from './app.tsx'

render(<App />, document.getElementById('app')!)

export { type Config, ConfigError, loadConfig } from './config';
export { type RunningServer, start } from './start';

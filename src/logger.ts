/**
 * The winston logger shared by the API, the worker and the CLI. JSON lines on stderr in production
 * (`NODE_ENV=production`), a compact colourless line otherwise. Never log API keys or webhook secrets:
 * callers pass ids, not credentials.
 */
import winston from 'winston';

export const logger = winston.createLogger({
  level: process.env.LOG_LEVEL || 'info',
  format:
    process.env.NODE_ENV === 'production'
      ? winston.format.combine(winston.format.timestamp(), winston.format.json())
      : winston.format.combine(
          winston.format.timestamp({ format: 'HH:mm:ss.SSS' }),
          winston.format.printf(({ timestamp, level, message, ...rest }) => {
            const extra = Object.keys(rest).length ? ' ' + JSON.stringify(rest) : '';
            return `${timestamp} ${level} ${message}${extra}`;
          }),
        ),
  transports: [new winston.transports.Console({ stderrLevels: ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'] })],
});

// The candidate's dialog stylesheet as a module of its own, so it is fetched when a dialog is about to open.
import './interview-dialog.css';

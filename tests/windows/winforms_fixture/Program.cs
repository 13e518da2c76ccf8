// A small WinForms window for the Windows catalog on a real runner: a check box, a text box and a
// drop-down list, all native controls (FlatStyle.System), so the test reads their state with their own
// messages (BM_GETCHECK, WM_GETTEXT, CB_GETCURSEL) while the driver sees them through UI Automation.
using System;
using System.Drawing;
using System.Windows.Forms;

static class Program
{
    [STAThread]
    static void Main()
    {
        Application.EnableVisualStyles();
        var form = new Form { Text = "cua WinForms fixture", ClientSize = new Size(360, 160) };
        var check = new CheckBox { Text = "Remember me", FlatStyle = FlatStyle.System, Location = new Point(12, 12), AutoSize = true };
        var text = new TextBox { Location = new Point(12, 44), Width = 320, AccessibleName = "Note" };
        var combo = new ComboBox { DropDownStyle = ComboBoxStyle.DropDownList, Location = new Point(12, 78), Width = 160, AccessibleName = "Colour" };
        combo.Items.AddRange(new object[] { "Red", "Green", "Blue" });
        combo.SelectedIndex = 0;
        form.Controls.AddRange(new Control[] { check, text, combo });
        Application.Run(form);
    }
}
